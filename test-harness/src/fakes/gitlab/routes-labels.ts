// Fake GitLab routes: a project's labels (GET /projects/:id/labels), sorted by name, `search` on
// the name, and the open/closed issue and open MR counts only with `with_counts=true`, as GitLab's
// Labels API answers (https://docs.gitlab.com/api/labels/#list-labels).
import type { FakeGitLab } from './fake-gitlab.js';
import { offsetPage, readableProject } from './http.js';
import type { LabelRecord, ProjectRecord } from './records.js';

/** GitLab's label entity: its text colour is white on dark colours, dark on light ones. */
function labelObject(p: ProjectRecord, l: LabelRecord, counts: boolean) {
  const rgb = [1, 3, 5].map((i) => Number.parseInt(l.color.slice(i, i + 2), 16) || 0);
  const light = (rgb[0] ?? 0) * 0.299 + (rgb[1] ?? 0) * 0.587 + (rgb[2] ?? 0) * 0.114 > 186;
  const carrying = (xs: Array<{ labels: string[]; state: string }>, state: string) =>
    xs.filter((x) => x.state === state && x.labels.includes(l.name)).length;
  return {
    id: l.id,
    name: l.name,
    description: l.description,
    description_html: l.description ?? '',
    text_color: light ? '#1F1E24' : '#FFFFFF',
    color: l.color,
    archived: false,
    subscribed: false,
    priority: l.priority,
    is_project_label: true,
    ...(counts
      ? {
          open_issues_count: carrying(p.issues, 'opened'),
          closed_issues_count: carrying(p.issues, 'closed'),
          open_merge_requests_count: carrying(p.mergeRequests, 'opened'),
        }
      : {}),
  };
}

export function registerLabelRoutes(gl: FakeGitLab): void {
  gl.route('GET', '/projects/:id/labels', (req, who) => {
    const p = readableProject(gl.state, req, who);
    const search = (req.query.get('search') ?? '').toLowerCase();
    const counts = req.query.get('with_counts') === 'true';
    const labels = gl.state
      .labelsOf(p)
      .filter((l) => !search || l.name.toLowerCase().includes(search))
      .sort((a, b) => a.name.localeCompare(b.name));
    const page = offsetPage(req, labels, gl.paging);
    return { ...page, body: page.body.map((l) => labelObject(p, l, counts)) };
  });
}
