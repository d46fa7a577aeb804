import 'reflect-metadata';
import { startService } from './bootstrap.js';

const code = await startService();
if (code !== 0) process.exit(code);
