import 'reflect-metadata';
import { limitHeapGrowth } from './common/memory/heap-growth.js';
import { startService } from './bootstrap.js';

limitHeapGrowth();
const code = await startService();
if (code !== 0) process.exit(code);
