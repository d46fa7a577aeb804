import { describeFundingContract } from '../../../../test/contract/funding-contract.js';

// okx names a perpetual by its own id in the funding answers.
describeFundingContract('okx', { perpetualId: (b) => `${b}-USDT-SWAP` });
