import { describeExchangeContract, describeInlineDelivery } from './contract-harness.js';

describeExchangeContract('aster');
describeInlineDelivery('aster');
