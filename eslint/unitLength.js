// No function a screen long (issue 42): every function, method, class body and function assigned to a name is measured
// in lines, the same units the before-stop hook measures with the TypeScript parser, so a newcomer can read a step
// whole. The limit and the named exceptions come from the config (eslint.config.js), where each carries its reason.
import path from 'node:path';

const posix = (p) => p.split(path.sep).join('/');

/** The name a unit is known by: its own name, or the variable, property or method it is assigned to. */
function unitName(node) {
  if (node.id?.name) return node.id.name;
  const parent = node.parent;
  if (!parent) return null;
  if (parent.type === 'VariableDeclarator' && parent.id.type === 'Identifier') return parent.id.name;
  if (
    (parent.type === 'Property' ||
      parent.type === 'MethodDefinition' ||
      parent.type === 'PropertyDefinition') &&
    parent.key
  ) {
    if (parent.key.type === 'Identifier') return parent.key.name;
    if (parent.key.type === 'Literal') return String(parent.key.value);
  }
  return null;
}

/** Whether `node` is a unit: a declaration, a method, or a function expression given a name by what holds it. */
function isUnit(node) {
  if (node.type === 'FunctionDeclaration' || node.type === 'ClassDeclaration') return true;
  if (node.type === 'ClassExpression') return node.parent?.type === 'VariableDeclarator';
  const holder = node.parent?.type;
  return (
    holder === 'VariableDeclarator' ||
    holder === 'Property' ||
    holder === 'MethodDefinition' ||
    holder === 'PropertyDefinition'
  );
}

/** The node whose lines count: a method or property from its key, so a method measures as the TypeScript parser does. */
const measured = (node) =>
  node.parent && (node.parent.type === 'MethodDefinition' || node.parent.type === 'Property')
    ? node.parent
    : node;

const rule = {
  meta: {
    type: 'suggestion',
    docs: {
      description: 'A function or class body longer than `max` lines is split into named steps (issue 42).',
    },
    schema: [
      {
        type: 'object',
        properties: {
          max: { type: 'integer', minimum: 1 },
          exceptions: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                file: { type: 'string' },
                name: { type: 'string' },
                why: { type: 'string', minLength: 1 },
              },
              required: ['file', 'name', 'why'],
              additionalProperties: false,
            },
          },
        },
        required: ['max'],
        additionalProperties: false,
      },
    ],
  },
  create(context) {
    const { max, exceptions = [] } = context.options[0] ?? { max: 80 };
    const file = posix(path.relative(posix(context.cwd), posix(context.filename)));
    const excused = new Set(exceptions.filter((e) => e.file === file).map((e) => e.name));
    const check = (node) => {
      if (!isUnit(node)) return;
      const span = measured(node).loc;
      const lines = span.end.line - span.start.line + 1;
      if (lines <= max) return;
      const name = unitName(node) ?? '(anonymous)';
      if (excused.has(name)) return;
      const what = node.type.startsWith('Class') ? 'class body' : 'function';
      context.report({
        node: measured(node),
        message: `${name} is a ${what} of ${lines} lines (over ${max}): split it into named steps a reader can take whole, or list it with a reason where the rule is configured (issue 42).`,
      });
    };
    return {
      FunctionDeclaration: check,
      FunctionExpression: check,
      ArrowFunctionExpression: check,
      ClassDeclaration: check,
      ClassExpression: check,
    };
  },
};

/** One rule under two names, so one config warns above the aim (80) and the other fails above a screen (150). */
export default { rules: { 'long-unit': rule, 'screen-long-unit': rule } };
