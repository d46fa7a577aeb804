import { describeDepthContract } from './depth-contract.js';

describeDepthContract('binance', { limit: 20, lotMarket: true });
