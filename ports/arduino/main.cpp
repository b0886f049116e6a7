/* Arduino's main(), as its core runs a sketch, for building a sketch folder with
 * avr-g++ alone (make avr). Not part of the sketch: the Arduino IDE brings its own.
 * A PC build of the sketch (the tests) calls setup() once and returns. */
void setup(void);
void loop(void);

int main(void) {
    setup();
#ifdef __AVR__
    for (;;) loop();
#endif
    return 0;
}
