import { describeExchangeContract, describeInlineDelivery } from '../../../../test/contract/contract-harness.js';

describeExchangeContract('binance');
describeInlineDelivery('binance');
