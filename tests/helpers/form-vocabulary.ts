import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

/** An expression that reads a form's intent: `intent`, `form.intent`, `fields.intent`, `form.get("intent")`. */
const INTENT_EXPRESSION = /(?:\bintent|\.get\(\s*["']intent["']\s*\))$/;

function literal(node: ts.Node | undefined): string | undefined {
  return node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) ? node.text : undefined;
}

/**
 * Every form intent and field name the app's source knows, read from its syntax: the keys of the
 * handler maps given to handleAdminForm (and of `…Intents` maps), `name="intent" value="…"` in forms,
 * `intent: "…"` in submissions, and the intents actions compare or switch on; fields are the
 * `name="…"` of inputs and the `fields.…` of shared forms. The fuzz sends every intent to every
 * action, so each route's own intents are among them wherever they are declared.
 */
export function formVocabulary(root = "app"): { intents: string[]; fields: string[]; queryNames: string[] } {
  const intents = new Set<string>();
  const fields = new Set<string>();
  const queryNames = new Set<string>();
  const keysOf = (node: ts.Node | undefined) => {
    if (!node || !ts.isObjectLiteralExpression(node)) return;
    for (const property of node.properties)
      if (property.name && (ts.isIdentifier(property.name) || ts.isStringLiteral(property.name))) intents.add(property.name.text);
  };
  for (const file of sourceFiles(root)) {
    const source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
    const text = (node: ts.Node) => node.getText(source);
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && text(node.expression) === "handleAdminForm") keysOf(node.arguments[2]);
      if (ts.isVariableDeclaration(node) && /Intents$/.test(text(node.name))) keysOf(node.initializer);
      if (ts.isFunctionDeclaration(node) && /Intents$/.test(node.name?.text ?? ""))
        for (const statement of node.body?.statements ?? []) if (ts.isReturnStatement(statement)) keysOf(statement.expression);
      if (ts.isJsxAttributes(node)) {
        const attributes = new Map(
          node.properties.flatMap((a) => (ts.isJsxAttribute(a) ? [[text(a.name), literal(a.initializer)] as const] : [])),
        );
        const name = attributes.get("name");
        const value = attributes.get("value");
        if (name === "intent" && value) intents.add(value);
        else if (name) fields.add(name);
      }
      if (
        ts.isBinaryExpression(node) &&
        (node.operatorToken.kind === ts.SyntaxKind.EqualsEqualsEqualsToken ||
          node.operatorToken.kind === ts.SyntaxKind.ExclamationEqualsEqualsToken)
      )
        for (const [reader, value] of [
          [node.left, node.right],
          [node.right, node.left],
        ] as const) {
          const intent = literal(value);
          if (intent && INTENT_EXPRESSION.test(text(reader))) intents.add(intent);
        }
      if (ts.isSwitchStatement(node) && INTENT_EXPRESSION.test(text(node.expression)))
        for (const clause of node.caseBlock.clauses) {
          const intent = ts.isCaseClause(clause) ? literal(clause.expression) : undefined;
          if (intent) intents.add(intent);
        }
      if (ts.isPropertyAssignment(node) && text(node.name) === "intent") {
        const intent = literal(node.initializer);
        if (intent) intents.add(intent);
      }
      if (ts.isPropertyAccessExpression(node) && text(node.expression) === "fields") fields.add(node.name.text);
      // A query parameter a loader reads: `url.searchParams.get("post")`, `.getAll(…)`, `.has(…)`.
      if (ts.isCallExpression(node) && /searchParams\.(?:get|getAll|has)$/.test(text(node.expression))) {
        const name = literal(node.arguments[0]);
        if (name) queryNames.add(name);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { intents: [...intents].sort(), fields: [...fields].sort(), queryNames: [...queryNames].sort() };
}
