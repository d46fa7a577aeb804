import { describeExchangeContract, describeInlineDelivery } from './contract-harness.js';

describeExchangeContract('gate');
describeInlineDelivery('gate');
