import { runServer } from '@refmcp/shared/server';
import { slackServer } from './server.js';

void runServer(slackServer);
