import { describeSignedNetworksContract } from '../../../../test/contract/networks-contract.js';

describeSignedNetworksContract({
  exchange: 'okx',
  endpoint: '/www.okx.com/api/v5/asset/currencies',
  keyHeader: 'ok-access-key',
  missingKey: { status: 401, body: { msg: 'Request header OK-ACCESS-KEY can not be empty.', code: '50103' } },
  chains: { eth: ['ERC20', 'ETH'], ethL2: ['ARBITRUM', 'ARBITRUM'], btc: ['BTC', 'BTC'] },
});
