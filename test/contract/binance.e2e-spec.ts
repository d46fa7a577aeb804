import { describeExchangeContract, describeInlineDelivery } from './contract-harness.js';

describeExchangeContract('binance');
describeInlineDelivery('binance');
