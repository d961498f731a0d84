import { runServer } from '@refmcp/shared/server';
import { searchServer } from './server.js';

void runServer(searchServer);
