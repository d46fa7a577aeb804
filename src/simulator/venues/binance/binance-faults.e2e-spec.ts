import 'reflect-metadata';
import { describeVenueFaults } from '../../../../test/e2e/venue-faults.harness.js';

// binance through the unmodified ccxt client against the strict simulator: see the harness.
describeVenueFaults('binance');
