import { describeDepthContract } from '../../../../test/contract/depth-contract.js';

describeDepthContract('gate', { limit: 20, unwatchParams: () => ({ limit: 20 }) });
