import 'reflect-metadata';
import { serve } from './lifecycle.js';

await serve();
