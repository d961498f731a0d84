/** Counts of what the untrusted-text sanitiser neutralised (see `./sanitize.ts`). */
export interface SanitizeFindings {
  tagCharacters: number;
  bidiControls: number;
  invisibleCharacters: number;
  /** HTML comments removed, and comment-like markup (`<?…>`, `<!…>`, `<![CDATA[…`) escaped. */
  htmlComments: number;
  /** Link reference definitions nothing links to (`[//]: # (…)`), which render as nothing: removed. */
  markdownComments: number;
  /** Elements removed (script, style, iframe) and tags replaced by a marker (meta, form, object, …). */
  dangerousElements: number;
  eventHandlers: number;
  unsafeLinks: number;
  /** The data label's own tags (`</untrusted-data`, near-copies included) defused in the text shown. */
  labelTags: number;
}

/** A fresh all-zero findings record. */
export function emptyFindings(): SanitizeFindings {
  return {
    tagCharacters: 0,
    bidiControls: 0,
    invisibleCharacters: 0,
    htmlComments: 0,
    markdownComments: 0,
    dangerousElements: 0,
    eventHandlers: 0,
    unsafeLinks: 0,
    labelTags: 0,
  };
}
