/* part 2's PTX (filled below) */
