// A oneOf told apart by a property (a batch's `op`) is written inline in the route schema, which
// is what the validator needs; OpenAPI wants each branch as a named component with an explicit
// mapping, so the document's generator moves the branches there (by their titles).
type Schema = Record<string, unknown>;
interface Document {
  components?: { schemas?: Record<string, Schema> };
}

export function nameDiscriminatedBranches(document: Document): void {
  const schemas = ((document.components ??= {}).schemas ??= {});
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== 'object') return;
    const schema = node as Schema;
    const discriminator = schema.discriminator as { propertyName: string; mapping?: Record<string, string> } | undefined;
    if (discriminator && Array.isArray(schema.oneOf)) {
      const mapping: Record<string, string> = {};
      schema.oneOf = (schema.oneOf as Schema[]).map((branch) => {
        const title = branch.title;
        const tag = (branch.properties as Record<string, { const?: unknown; enum?: unknown[] }> | undefined)?.[discriminator.propertyName];
        const value = tag?.const ?? tag?.enum?.[0];
        if (typeof title !== 'string' || typeof value !== 'string') return branch;
        visit(branch);
        schemas[title] = branch;
        mapping[value] = `#/components/schemas/${title}`;
        return { $ref: mapping[value] };
      });
      schema.discriminator = { ...discriminator, mapping: { ...discriminator.mapping, ...mapping } };
      return;
    }
    for (const value of Object.values(schema)) visit(value);
  };
  visit((document as { paths?: unknown }).paths);
}
