import { describeDepthContract } from './depth-contract.js';

describeDepthContract('okx', { limit: 20 });
