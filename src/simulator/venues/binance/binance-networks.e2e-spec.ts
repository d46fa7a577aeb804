import { describeSignedNetworksContract } from '../../../../test/contract/networks-contract.js';

describeSignedNetworksContract({
  exchange: 'binance',
  endpoint: '/api.binance.com/sapi/v1/capital/config/getall',
  keyHeader: 'x-mbx-apikey',
  missingKey: { status: 401, body: { code: -2014, msg: 'API-key format invalid.' } },
  chains: { eth: ['ETH', 'ETH'], ethL2: ['ARBITRUM', 'ARBITRUM'], btc: ['BTC', 'BTC'] },
});
