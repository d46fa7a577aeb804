import { describeExchangeContract, describeInlineDelivery } from '../../../../test/contract/contract-harness.js';

describeExchangeContract('bybit');
describeInlineDelivery('bybit');
