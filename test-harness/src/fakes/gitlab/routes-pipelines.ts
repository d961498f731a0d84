// Fake GitLab routes: pipelines (list, get), their jobs, one job and its log — plain text, the
// whole log unless `byte_offset` / `byte_limit` (max 512,000) cut a window of it.
import type { FakeRequest } from '../../fake-api/index.js';
import type { FakeGitLab } from './fake-gitlab.js';
import {
  type GitLabCaller,
  glInvalid,
  intParam,
  notFound,
  offsetPage,
  Reply,
  readableProject,
} from './http.js';
import { job, pipeline, pipelineBasic } from './objects-repo.js';
import type { ProjectRecord } from './state.js';

/** Largest `byte_limit` the job log endpoint accepts. */
export const TRACE_BYTE_LIMIT_MAX = 512_000;

export function registerPipelineRoutes(gl: FakeGitLab): void {
  const { state } = gl;
  const w = () => ({ web: gl.web, api: gl.url });
  const ci = (req: FakeRequest, who: GitLabCaller | undefined) => readableProject(state, req, who);
  const jobOf = (p: ProjectRecord, req: FakeRequest) => {
    const id = intParam(req.params.job_id, 'job_id');
    const found = state.jobs(p).find((x) => x.job.id === id);
    if (!found) throw notFound('Job');
    return found;
  };

  gl.route('GET', '/projects/:id/pipelines', (req, who) => {
    const p = ci(req, who);
    const q = req.query;
    const list = p.pipelines
      .filter(
        (x) =>
          (!q.get('status') || x.status === q.get('status')) &&
          (!q.get('ref') || x.ref === q.get('ref')) &&
          (!q.get('sha') || x.sha === q.get('sha')),
      )
      .sort((a, b) => (q.get('sort') === 'asc' ? a.id - b.id : b.id - a.id));
    const page = offsetPage(req, list, gl.paging);
    return { ...page, body: page.body.map((x) => pipelineBasic(p, x, w())) };
  });

  gl.route('GET', '/projects/:id/pipelines/:pipeline_id', (req, who) => {
    const p = ci(req, who);
    const id = intParam(req.params.pipeline_id, 'pipeline_id');
    const x = p.pipelines.find((y) => y.id === id);
    if (!x) throw notFound('Pipeline');
    return { body: pipeline(state, p, x, w()) };
  });

  gl.route('GET', '/projects/:id/pipelines/:pipeline_id/jobs', (req, who) => {
    const p = ci(req, who);
    const id = intParam(req.params.pipeline_id, 'pipeline_id');
    const x = p.pipelines.find((y) => y.id === id);
    if (!x) throw notFound('Pipeline');
    const scopes = [...req.query.getAll('scope[]'), ...req.query.getAll('scope')];
    const jobs = x.jobs
      .filter((j) => scopes.length === 0 || scopes.includes(j.status))
      .sort((a, b) => b.id - a.id);
    const page = offsetPage(req, jobs, gl.paging);
    return { ...page, body: page.body.map((j) => job(state, p, x, j, w())) };
  });

  gl.route('GET', '/projects/:id/jobs/:job_id', (req, who) => {
    const p = ci(req, who);
    const { job: j, pipeline: x } = jobOf(p, req);
    return { body: job(state, p, x, j, w()) };
  });

  gl.route('GET', '/projects/:id/jobs/:job_id/trace', (req, who) => {
    const p = ci(req, who);
    const { job: j } = jobOf(p, req);
    const offsetRaw = req.query.get('byte_offset');
    const limitRaw = req.query.get('byte_limit');
    const offset = offsetRaw === null ? 0 : intParam(offsetRaw, 'byte_offset');
    const limit = limitRaw === null ? undefined : intParam(limitRaw, 'byte_limit');
    if (limit !== undefined && (limit < 1 || limit > TRACE_BYTE_LIMIT_MAX))
      throw new Reply(glInvalid('byte_limit does not have a valid value'));
    const log = j.log.subarray(offset, limit === undefined ? undefined : offset + limit);
    return { raw: new Uint8Array(log), headers: { 'content-type': 'text/plain; charset=utf-8' } };
  });
}
