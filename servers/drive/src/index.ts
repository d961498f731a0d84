import { runServer } from '@refmcp/shared/server';
import { runAuth } from './auth/login.js';
import { driveServer } from './server.js';

if (process.argv[2] === 'auth') void runAuth(process.argv.slice(3), process.env);
else void runServer(driveServer);
