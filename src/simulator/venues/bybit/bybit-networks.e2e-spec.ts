import { expect } from 'vitest';
import { describeSignedNetworksContract } from '../../../../test/contract/networks-contract.js';

describeSignedNetworksContract({
  exchange: 'bybit',
  endpoint: '/api.bybit.com/v5/asset/coin/query-info',
  keyHeader: 'x-bapi-api-key',
  missingKey: {
    status: 401,
    body: { retCode: 10003, retMsg: 'API key is invalid.', result: {}, retExtInfo: {}, time: expect.any(Number) as number },
  },
  chains: { eth: ['ETH', 'ETH'], ethL2: ['ARBI', 'ARBITRUM'], btc: ['BTC', 'BTC'] },
});
