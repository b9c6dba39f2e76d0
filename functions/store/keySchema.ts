/** The keys of a table with a string partition key `pk` and a sort key `sk` of the given type, for CreateTable. */
export const pkSkKeySchema = (sortKeyType: 'S' | 'N') => ({
  KeySchema: [
    { AttributeName: 'pk', KeyType: 'HASH' as const },
    { AttributeName: 'sk', KeyType: 'RANGE' as const },
  ],
  AttributeDefinitions: [
    { AttributeName: 'pk', AttributeType: 'S' as const },
    { AttributeName: 'sk', AttributeType: sortKeyType },
  ],
});
