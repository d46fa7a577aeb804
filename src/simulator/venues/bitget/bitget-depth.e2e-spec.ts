import { describeDepthContract } from '../../../../test/contract/depth-contract.js';

describeDepthContract('bitget', { limit: 20 });
