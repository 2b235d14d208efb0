/// The `Encoder` side of `CompactJSONEncoder`: an encoder writes the value at its place in
/// the stream; its containers add members or elements to the frame they opened. Coding paths
/// are not tracked (each would cost an array per member; the only failure, a non-finite
/// number, names its value).
struct StreamEncoder: Encoder {
    let stream: JSONStream
    /// The number of frames open above this value.
    let depth: Int
    let codingPath: [CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let serial = stream.open(object: true, at: depth)
        return KeyedEncodingContainer(KeyedStreamContainer<Key>(stream: stream, frame: depth, serial: serial, codingPath: codingPath))
    }

    func unkeyedContainer() -> UnkeyedEncodingContainer {
        let serial = stream.open(object: false, at: depth)
        return UnkeyedStreamContainer(stream: stream, frame: depth, serial: serial, codingPath: codingPath)
    }

    func singleValueContainer() -> SingleValueEncodingContainer {
        SingleValueStreamContainer(stream: stream, codingPath: codingPath)
    }
}

/// An object's members, written in the order they come.
struct KeyedStreamContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let stream: JSONStream
    let frame: Int
    let serial: Int
    let codingPath: [CodingKey]

    private func begin(_ key: Key) throws { try stream.begin(frame, serial: serial, key: key.stringValue, codingPath: codingPath) }

    mutating func encodeNil(forKey key: Key) throws {
        try begin(key)
        stream.writeNull()
    }
    mutating func encode(_ value: Bool, forKey key: Key) throws {
        try begin(key)
        stream.write(value)
    }
    mutating func encode(_ value: String, forKey key: Key) throws {
        try begin(key)
        stream.write(value)
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        try begin(key)
        try stream.write(value, codingPath: codingPath)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        try begin(key)
        try stream.write(Double(value), codingPath: codingPath)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws {
        try begin(key)
        stream.write(integer: value)
    }
    mutating func encode(_ value: Int8, forKey key: Key) throws {
        try begin(key)
        stream.write(integer: value)
    }
    mutating func encode(_ value: Int16, forKey key: Key) throws {
        try begin(key)
        stream.write(integer: value)
    }
    mutating func encode(_ value: Int32, forKey key: Key) throws {
        try begin(key)
        stream.write(integer: value)
    }
    mutating func encode(_ value: Int64, forKey key: Key) throws {
        try begin(key)
        stream.write(integer: value)
    }
    mutating func encode(_ value: UInt, forKey key: Key) throws {
        try begin(key)
        stream.write(integer: value)
    }
    mutating func encode(_ value: UInt8, forKey key: Key) throws {
        try begin(key)
        stream.write(integer: value)
    }
    mutating func encode(_ value: UInt16, forKey key: Key) throws {
        try begin(key)
        stream.write(integer: value)
    }
    mutating func encode(_ value: UInt32, forKey key: Key) throws {
        try begin(key)
        stream.write(integer: value)
    }
    mutating func encode(_ value: UInt64, forKey key: Key) throws {
        try begin(key)
        stream.write(integer: value)
    }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try begin(key)
        try stream.write(value, codingPath: codingPath)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        nestedEncoder(key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> UnkeyedEncodingContainer { nestedEncoder(key).unkeyedContainer() }

    mutating func superEncoder() -> Encoder { nestedEncoder(Key(stringValue: "super")) }

    mutating func superEncoder(forKey key: Key) -> Encoder { nestedEncoder(key) }

    /// An encoder for the value of `key` (a container it opens stays open until the parent
    /// goes on). A closed parent gives an encoder whose writes are refused.
    private func nestedEncoder(_ key: Key?) -> StreamEncoder {
        if let key { try? begin(key) }
        return StreamEncoder(stream: stream, depth: frame + 1, codingPath: codingPath)
    }
}

/// An array's elements, written in the order they come.
struct UnkeyedStreamContainer: UnkeyedEncodingContainer {
    let stream: JSONStream
    let frame: Int
    let serial: Int
    let codingPath: [CodingKey]
    private(set) var count = 0

    init(stream: JSONStream, frame: Int, serial: Int, codingPath: [CodingKey]) {
        self.stream = stream
        self.frame = frame
        self.serial = serial
        self.codingPath = codingPath
    }

    private mutating func next() throws {
        try stream.begin(frame, serial: serial, key: nil, codingPath: codingPath)
        count += 1
    }

    mutating func encodeNil() throws {
        try next()
        stream.writeNull()
    }
    mutating func encode(_ value: Bool) throws {
        try next()
        stream.write(value)
    }
    mutating func encode(_ value: String) throws {
        try next()
        stream.write(value)
    }
    mutating func encode(_ value: Double) throws {
        try next()
        try stream.write(value, codingPath: codingPath)
    }
    mutating func encode(_ value: Float) throws {
        try next()
        try stream.write(Double(value), codingPath: codingPath)
    }
    mutating func encode(_ value: Int) throws {
        try next()
        stream.write(integer: value)
    }
    mutating func encode(_ value: Int8) throws {
        try next()
        stream.write(integer: value)
    }
    mutating func encode(_ value: Int16) throws {
        try next()
        stream.write(integer: value)
    }
    mutating func encode(_ value: Int32) throws {
        try next()
        stream.write(integer: value)
    }
    mutating func encode(_ value: Int64) throws {
        try next()
        stream.write(integer: value)
    }
    mutating func encode(_ value: UInt) throws {
        try next()
        stream.write(integer: value)
    }
    mutating func encode(_ value: UInt8) throws {
        try next()
        stream.write(integer: value)
    }
    mutating func encode(_ value: UInt16) throws {
        try next()
        stream.write(integer: value)
    }
    mutating func encode(_ value: UInt32) throws {
        try next()
        stream.write(integer: value)
    }
    mutating func encode(_ value: UInt64) throws {
        try next()
        stream.write(integer: value)
    }
    mutating func encode<T: Encodable>(_ value: T) throws {
        try next()
        try stream.write(value, codingPath: codingPath)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        nestedEncoder().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> UnkeyedEncodingContainer { nestedEncoder().unkeyedContainer() }

    mutating func superEncoder() -> Encoder { nestedEncoder() }

    private mutating func nestedEncoder() -> StreamEncoder {
        try? next()
        return StreamEncoder(stream: stream, depth: frame + 1, codingPath: codingPath)
    }
}

/// One value, written where the encoder stands.
struct SingleValueStreamContainer: SingleValueEncodingContainer {
    let stream: JSONStream
    let codingPath: [CodingKey]

    mutating func encodeNil() throws { stream.writeNull() }
    mutating func encode(_ value: Bool) throws { stream.write(value) }
    mutating func encode(_ value: String) throws { stream.write(value) }
    mutating func encode(_ value: Double) throws { try stream.write(value, codingPath: codingPath) }
    mutating func encode(_ value: Float) throws { try stream.write(Double(value), codingPath: codingPath) }
    mutating func encode(_ value: Int) throws { stream.write(integer: value) }
    mutating func encode(_ value: Int8) throws { stream.write(integer: value) }
    mutating func encode(_ value: Int16) throws { stream.write(integer: value) }
    mutating func encode(_ value: Int32) throws { stream.write(integer: value) }
    mutating func encode(_ value: Int64) throws { stream.write(integer: value) }
    mutating func encode(_ value: UInt) throws { stream.write(integer: value) }
    mutating func encode(_ value: UInt8) throws { stream.write(integer: value) }
    mutating func encode(_ value: UInt16) throws { stream.write(integer: value) }
    mutating func encode(_ value: UInt32) throws { stream.write(integer: value) }
    mutating func encode(_ value: UInt64) throws { stream.write(integer: value) }
    mutating func encode<T: Encodable>(_ value: T) throws { try stream.write(value, codingPath: codingPath) }
}
