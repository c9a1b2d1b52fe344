// The test pattern shared by the shaders, the demo's kernel and the tests: word i of a buffer
// filled with seed s holds pattern(i, s). The C side (samples/shaders/pattern.h) computes the
// same values.
uint pattern(uint i, uint seed)
{
    return (i * 2654435761u) ^ seed;
}
