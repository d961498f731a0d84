import './heap.js'; // first: V8 heap settings before anything else allocates
import { runServer } from '@refmcp/shared/server';
import { filesystemServer } from './server.js';

void runServer(filesystemServer);
