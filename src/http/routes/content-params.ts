// Request pieces the content routes and the revision routes share.
import Type from 'typebox';

export const IdParams = Type.Object({ id: Type.String({ description: 'The content item id.' }) });
export const IfMatchHeaders = Type.Object({ 'if-match': Type.Optional(Type.String({ description: 'An ETag from an earlier response; 412 when it no longer matches.' })) });
/** Actions without fields (archive, restore): the body may be omitted or `{}`, and anything in it is rejected. */
export const NoFields = Type.Object({}, { additionalProperties: false, 'x-optional-body': true, description: 'Optional; no fields.' });
export const tags = ['Content'];
