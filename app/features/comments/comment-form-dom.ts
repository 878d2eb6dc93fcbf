/**
 * Marks the comment form, apart from its behaviour, so every page's enhancement script can look for
 * the form without loading the behaviour (and the verification widget) with it.
 */
export const COMMENT_FORM_ATTRIBUTE = "data-comment-form";
/** The verification widget's place inside the form. */
export const COMMENT_VERIFICATION_ATTRIBUTE = "data-comment-verification";
