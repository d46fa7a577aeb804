import 'reflect-metadata';
import { describeVenueFaults } from './venue-faults.harness.js';

// okx through the unmodified ccxt client against the strict simulator: see the harness.
describeVenueFaults('okx');
