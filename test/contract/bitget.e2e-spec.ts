import { describeExchangeContract, describeInlineDelivery } from './contract-harness.js';

describeExchangeContract('bitget');
describeInlineDelivery('bitget');
