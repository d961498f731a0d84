// Fake GitLab routes: pipelines (list, get, a merge request's, retry, cancel, create for a ref),
// their jobs, one job and its log — plain text, the whole log unless `byte_offset` / `byte_limit`
// (max 512,000) cut a window of it. Writes need Developer access (docs.gitlab.com/api/pipelines).
import type { FakeRequest } from '../../fake-api/index.js';
import type { FakeGitLab } from './fake-gitlab.js';
import {
  body,
  forbidden,
  type GitLabCaller,
  glError,
  glInvalid,
  intParam,
  notFound,
  offsetPage,
  Reply,
  readableProject,
  requireCaller,
  required,
} from './http.js';
import { mrShas } from './objects-issues.js';
import { job, pipeline, pipelineBasic } from './objects-repo.js';
import { DEVELOPER, type JobStatus, type ProjectRecord } from './state.js';

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

  const developer = (req: FakeRequest, who: GitLabCaller | undefined) => {
    const p = ci(req, who);
    const caller = requireCaller(who, true);
    if (state.accessLevel(p, caller.user.id) < DEVELOPER) throw forbidden();
    return p;
  };
  const pipelineOf = (p: ProjectRecord, req: FakeRequest) => {
    const id = intParam(req.params.pipeline_id, 'pipeline_id');
    const x = p.pipelines.find((y) => y.id === id);
    if (!x) throw notFound('Pipeline');
    return x;
  };
  const settle = (statuses: JobStatus[]): JobStatus =>
    statuses.some((s) => s === 'running' || s === 'pending' || s === 'created')
      ? 'running'
      : statuses.some((s) => s === 'failed')
        ? 'failed'
        : statuses.some((s) => s === 'canceled')
          ? 'canceled'
          : 'success';

  gl.route('GET', '/projects/:id/merge_requests/:merge_request_iid/pipelines', (req, who) => {
    const p = ci(req, who);
    const iid = intParam(req.params.merge_request_iid, 'merge_request_iid');
    const mr = p.mergeRequests.find((m) => m.iid === iid);
    if (!mr) throw notFound('Merge Request');
    const { head } = mrShas(p, mr);
    const list = p.pipelines
      .filter((x) => x.ref === mr.sourceBranch || x.sha === head)
      .sort((a, b) => b.id - a.id);
    return { body: list.map((x) => pipelineBasic(p, x, w())) };
  });

  gl.route('POST', '/projects/:id/pipelines/:pipeline_id/retry', (req, who) => {
    const p = developer(req, who);
    const x = pipelineOf(p, req);
    for (const j of x.jobs)
      if (j.status === 'failed' || j.status === 'canceled') {
        j.status = 'pending';
        j.finishedAt = null;
      }
    x.status = settle(x.jobs.map((j) => j.status));
    x.finishedAt = x.status === 'running' ? null : x.finishedAt;
    return { status: 201, body: pipeline(state, p, x, w()) };
  });

  gl.route('POST', '/projects/:id/pipelines/:pipeline_id/cancel', (req, who) => {
    const p = developer(req, who);
    const x = pipelineOf(p, req);
    for (const j of x.jobs)
      if (j.status === 'running' || j.status === 'pending' || j.status === 'created') j.status = 'canceled';
    x.status = settle(x.jobs.map((j) => j.status));
    return { status: 201, body: pipeline(state, p, x, w()) };
  });

  gl.route('POST', '/projects/:id/pipeline', (req, who) => {
    const p = developer(req, who);
    const caller = requireCaller(who, true);
    const b = body<Record<string, unknown>>(req);
    const ref = required(b.ref, 'ref');
    if (!p.repo.resolve(ref)) throw new Reply(glError(400, { base: ['Reference not found'] }));
    const x = state.addPipeline(p, {
      ref,
      status: 'pending',
      user: caller.user.username,
      jobs: [{ name: 'build', stage: 'build', status: 'pending' }],
    });
    x.source = 'api';
    x.finishedAt = null;
    return { status: 201, body: pipeline(state, p, x, w()) };
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
