import { describeExchangeContract, describeInlineDelivery } from '../../../../test/contract/contract-harness.js';

describeExchangeContract('bitget');
describeInlineDelivery('bitget');
