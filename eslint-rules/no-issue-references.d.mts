import type { ESLint, Rule } from "eslint";

export const ISSUE_REFERENCE: RegExp;
export const noIssueReferences: Rule.RuleModule;
declare const plugin: ESLint.Plugin;
export default plugin;
