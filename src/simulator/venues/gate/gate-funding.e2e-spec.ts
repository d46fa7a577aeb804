import { describeFundingContract } from '../../../../test/contract/funding-contract.js';

// gate names a perpetual by its own id in the funding answers.
describeFundingContract('gate', { perpetualId: (b) => `${b}_USDT` });
