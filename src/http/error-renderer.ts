import type { ApiError } from '../common/errors/api-error.js';
import type { ErrorDataResponse, ErrorDetail, ErrorResponse } from '../common/errors/error.response.js';
import type { Translator } from '../i18n/translator.js';

/** Values echoed into messages never carry markup back to the client. */
function inert(args: Record<string, string | number> | undefined): Record<string, string | number> {
  const result: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(args ?? {})) {
    result[key] = typeof value === 'string' ? value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;') : value;
  }
  return result;
}

/** The one place that turns an {@link ApiError} into the contract's body (spec §12.1). */
export function renderError(error: ApiError, translator: Translator, lang: string): ErrorResponse {
  const data: ErrorDataResponse = { status: error.status };
  const { problems, missing, termId } = error.extra;
  if (missing) data.params = missing;
  if (problems) {
    const params: Record<string, string> = {};
    const details: Record<string, ErrorDetail> = {};
    for (const problem of problems) {
      const message = translator.t(lang, `params:${problem.key}`, { param: problem.param, ...inert(problem.args) });
      params[problem.param] = message;
      if (problem.detailsCode) {
        const detailData =
          problem.detailsForm === 'argument'
            ? { status: error.status, argument: problem.param, details: message }
            : { param: problem.param };
        details[problem.param] = { code: problem.detailsCode, message, data: detailData };
      }
    }
    data.params = params;
    data.details = Object.keys(details).length > 0 ? details : [];
  }
  if (termId !== undefined) data.term_id = termId;
  return { code: error.code, message: translator.t(lang, `errors:${error.extra.messageKey ?? error.code}`, inert(error.args)), data };
}
