import type { ESLint, Rule } from "eslint";

export const noHttpStatus: Rule.RuleModule;
declare const plugin: ESLint.Plugin;
export default plugin;
