import { describeExchangeContract, describeInlineDelivery } from '../../../../test/contract/contract-harness.js';

describeExchangeContract('okx');
describeInlineDelivery('okx');
