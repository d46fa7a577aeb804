import { describeExchangeContract, describeInlineDelivery } from '../../../../test/contract/contract-harness.js';

describeExchangeContract('aster');
describeInlineDelivery('aster');
