import { describeExchangeContract, describeInlineDelivery } from './contract-harness.js';

describeExchangeContract('okx');
describeInlineDelivery('okx');
