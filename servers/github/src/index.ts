import { runServer } from '@refmcp/shared/server';
import { githubServer } from './server.js';

await runServer(githubServer);
