import 'reflect-metadata';
import { describeVenueFaults } from './venue-faults.harness.js';

// gate through the unmodified ccxt client against the strict simulator: see the harness.
describeVenueFaults('gate');
