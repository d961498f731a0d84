import { runServer } from '@refmcp/shared/server';
import { githubServer } from './server.js';

void runServer(githubServer);
