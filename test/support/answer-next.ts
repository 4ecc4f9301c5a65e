import type { PermissionPrompter } from '../../src/background/permissions/prompter';
import type { Decision, PermissionRequest } from '../../src/shared/protocol';

/** Answers the next question the prompter asks with `decision`; resolves with the request that was asked. */
export function answerNext(prompter: PermissionPrompter, decision: Decision): Promise<PermissionRequest> {
  return new Promise<PermissionRequest>((resolve) => {
    const poll = setInterval(() => {
      const [request] = prompter.list();
      if (!request) return;
      clearInterval(poll);
      prompter.answer(request.id, decision);
      resolve(request);
    }, 2);
  });
}
