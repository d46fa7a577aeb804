import { describeExchangeContract, describeInlineDelivery } from './contract-harness.js';

describeExchangeContract('bybit');
describeInlineDelivery('bybit');
