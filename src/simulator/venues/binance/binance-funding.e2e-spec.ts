import { describeFundingContract } from '../../../../test/contract/funding-contract.js';

// binance names a perpetual by its own id in the funding answers.
describeFundingContract('binance', { perpetualId: (b) => `${b}USDT` });
