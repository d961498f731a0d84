import { runServer } from '@refmcp/shared/server';
import { browserServer } from './server.js';

void runServer(browserServer);
