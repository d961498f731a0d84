import { runServer } from '@refmcp/shared/server';
import { gitlabServer } from './server.js';

void runServer(gitlabServer);
