import { describeDepthContract } from '../../../../test/contract/depth-contract.js';

describeDepthContract('binance', { limit: 20, lotMarket: true });
