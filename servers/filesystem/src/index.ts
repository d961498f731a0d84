import { runServer } from '@refmcp/shared/server';
import { filesystemServer } from './server.js';

await runServer(filesystemServer);
