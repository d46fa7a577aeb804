import { describeDepthContract } from './depth-contract.js';

describeDepthContract('bitget', { limit: 20 });
