// The project's own ESLint rules, loaded by eslint.config.js as the plugin `local`.

/**
 * A number after "issue" (or "issues"), or a number after a lone "#": a ticket number tells a reader
 * nothing once the ticket is closed. `&#39;`, `PKCS#8` and colours such as `#3b82f6` do not match.
 */
const ISSUE_NUMBER = /\bissues?\s*#?\s*\d|(?:^|[^&\w])#\d{1,4}\b/i;

/** @type {import('eslint').Rule.RuleModule} */
const commentsCiteDecisions = {
  meta: {
    type: 'suggestion',
    docs: { description: 'Comments cite decision records (docs/decisions/NNNN-*.md), not issue numbers.' },
    schema: [],
    messages: {
      issueNumber:
        'Un commentaire cite un enregistrement de décision (docs/decisions/NNNN-…) ou dit sa raison, pas un numéro de ticket.',
    },
  },
  create(context) {
    return {
      Program() {
        for (const comment of context.sourceCode.getAllComments()) {
          if (ISSUE_NUMBER.test(comment.value))
            context.report({ loc: comment.loc, messageId: 'issueNumber' });
        }
      },
    };
  },
};

export default { rules: { 'comments-cite-decisions': commentsCiteDecisions } };
