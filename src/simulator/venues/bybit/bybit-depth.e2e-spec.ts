import { describeDepthContract } from '../../../../test/contract/depth-contract.js';

// ccxt 4.5.84 takes only 1, 50, 200 or 1000 levels on bybit, and unsubscribes linear books at 500 unless told the limit.
describeDepthContract('bybit', { limit: 50, unwatchParams: () => ({ limit: 50 }), lotMarket: true });
