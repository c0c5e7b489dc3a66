"""IBM MQ Appliance Performance Reports: M2001 (Version 2.0, June 2016) and M2002 (Version 1.0,
October 2018), read from the PDFs.

Every results table as the PDF prints it, copied from pdfplumber's plain text of each page
(``page.extract_text()``, not perfwh's reader), one string per row: the test, its size and
persistence, then each column group's numbers in order. ``groups`` are the column groups of
the header line ("M2002A HA and DR": an appliance and its deployment), ``columns`` the
columns of each group, ``page`` the page of the table's header (a table whose blocks run onto
the next page - Table 11 of M2002 - keeps the first). Checked number by number by
tests/test_expected_values.py.
"""

SOURCES = {
    "mq-appliance-m2001-2016.pdf": {
        # 7 tables x 4 rows x 2 appliances
        "measurements": 56,
        "claims": {"value": 11},
        "tables": {
            "Table 1": {
                "title": 'TABLE 1 - PEAK RATES FOR 10QM PERSISTENT MESSAGING, M2001A VS M2000A', "page": 7,
                "groups": ['M2001A', 'M2000A'],
                "columns": ['Max Rate*', 'CPU%', 'Clients'],
                "rows": [
                    '10Q 10QM Request Responder (256b Persistent) 65,543 86.43 301 42,913 53.81 301',
                    '10Q 10QM Request Responder (2KB Persistent) 54,054 79.74 281 20,066 28.32 301',
                    '10Q 10QM Request Responder (20KB Persistent) 12,272 20.29 51 3,468 4.32 11',
                    '10Q 10QM Request Responder (200KB Persistent) 1,299 5.7 11 350 2.63 11',
                ]},
            "Table 2": {
                "title": 'TABLE 2 - PEAK RATES FOR NON-PERSISTENT MESSAGING', "page": 10,
                "groups": ['M2001A', 'M2001B'],
                "columns": ['Max Rate*', 'CPU%', 'Clients'],
                "rows": [
                    '10Q Request Responder (256b Non-persistent) 177,630 97.42 141 58,689 99.56 41',
                    '10Q Request Responder (2KB Non-persistent) 155,829 97.87 161 51,403 99.29 41',
                    '10Q Request Responder (20KB Non-persistent) 54,020 29.67 51 37,694 98.86 51',
                    '10Q Request Responder (200KB Non-persistent) 5,664 13.04 31 5,602 88.38 41',
                ]},
            "Table 3": {
                "title": 'TABLE 3 – PEAK RATES FOR PERSISTENT MESSAGING', "page": 11,
                "groups": ['M2001A', 'M2001B'],
                "columns": ['Max Rate*', 'CPU%', 'Clients'],
                "rows": [
                    '10Q Request Responder (256b Persistent) 58,626 80.9 301 23,426 92.13 101',
                    '10Q Request Responder (2KB Persistent) 49,742 73.03 301 20,579 87.7 81',
                    '10Q Request Responder (20KB Persistent) 17,128 35.33 261 11,368 67.22 121',
                    '10Q Request Responder (200KB Persistent) 1,864 12.42 61 1,757 39.66 41',
                ]},
            "Table 4": {
                "title": 'TABLE 4 - PEAK RATES FOR 10QM NON-PERSISTENT MESSAGING', "page": 12,
                "groups": ['M2001A', 'M2001B'],
                "columns": ['Max Rate*', 'CPU%', 'Clients'],
                "rows": [
                    '10Q 10QM Request Responder (256b Non-persistent) 188,548 99.76 201 57,861 99.63 41',
                    '10Q 10QM Request Responder (2KB Non-persistent) 163,494 99.53 221 49,260 99.5 41',
                    '10Q 10QM Request Responder (20KB Non-persistent) 54,021 29.01 51 35,738 99.35 51',
                    '10Q 10QM Request Responder (200KB Non-persistent) 5,661 12.9 41 5,609 83.04 41',
                ]},
            "Table 5": {
                "title": 'TABLE 5- PEAK RATES FOR 10QM PERSISTENT MESSAGING', "page": 13,
                "groups": ['M2001A', 'M2001B'],
                "columns": ['Max Rate*', 'CPU%', 'Clients'],
                "rows": [
                    '10Q 10QM Request Responder (256b Persistent) 65,543 86.43 301 24,950 99.63 301',
                    '10Q 10QM Request Responder (2KB Persistent) 54,054 79.74 281 22,044 99.41 281',
                    '10Q 10QM Request Responder (20KB Persistent) 12,272 20.29 51 12,331 80.92 61',
                    '10Q 10QM Request Responder (200KB Persistent) 1,299 5.7 11 1,300 24.07 21',
                ]},
            "Table 6": {
                "title": 'TABLE 6 - PEAK RATES FOR 10 CHANNEL DQ NON-PERSISTENT MESSAGING', "page": 15,
                "groups": ['M2001A', 'M2001B'],
                "columns": ['Max Rate*', 'CPU%', 'Clients'],
                "rows": [
                    '10 Channel DQ Request Responder (256b Non-persistent) 201,053 82.03 451 74,628 97.53 51',
                    '10 Channel DQ Request Responder (2KB Non-persistent) 178,748 85.46 501 62,510 98.67 101',
                    '10 Channel DQ Request Responder (20KB Non-persistent) 53,952 23 61 41,995 94.48 71',
                    '10 Channel DQ Request Responder (200KB Non-persistent) 5,666 11.52 31 5,633 77.74 41',
                ]},
            "Table 7": {
                "title": 'TABLE 7 - PEAK RATES FOR 10 CHANNEL DQ PERSISTENT MESSAGING', "page": 16,
                "groups": ['M2001A', 'M2001B'],
                "columns": ['Max Rate*', 'CPU%', 'Clients'],
                "rows": [
                    '10 Channel DQ Request Responder (256b Persistent) 58,911 54.92 501 28,920 91.21 501',
                    '10 Channel DQ Request Responder (2KB Persistent) 46,936 46.89 501 25,498 87.66 501',
                    '10 Channel DQ Request Responder (20KB Persistent) 14,718 19.8 281 10,580 49.78 101',
                    '10 Channel DQ Request Responder (200KB Persistent) 1,716 9.65 71 1,554 33.25 41',
                ]},
        },
    },
    "mq-appliance-m2002-2018.pdf": {
        # 19 tables x 4 rows x 2 column groups, and the simulated-latency tables' 4 + 12 + 16 rows
        "measurements": 184,
        "claims": {"value": 22},
        "tables": {
            "Table 1": {
                "title": 'TABLE 1 - PEAK RATES FOR 10QM NON-PERSISTENT MESSAGING, M2002A VS M2001A', "page": 8,
                "groups": ['M2002A', 'M2001A'],
                "columns": ['Max Rate*', 'CPU%', 'Clients'],
                "rows": [
                    '10Q 10QM Request Responder (256b Non-persistent) 348,251 99.02 200 177,679 98.49 200',
                    '10Q 10QM Request Responder (2KB Non-persistent) 314,050 99.02 240 155,554 98.72 200',
                    '10Q 10QM Request Responder (20KB Non-persistent) 195,197 99.23 180 53,610 38.32 50',
                    '10Q 10QM Request Responder (200KB Non-persistent) 22,539 60.31 70 5,601 14.57 20',
                ]},
            "Table 2": {
                "title": 'TABLE 2 - PEAK RATES FOR 10QM PERSISTENT MESSAGING, M2002A VS M2001A', "page": 8,
                "groups": ['M2002A', 'M2001A'],
                "columns": ['Max Rate*', 'CPU%', 'Clients'],
                "rows": [
                    '10Q 10QM Request Responder (256b Persistent) 125,210 92.06 300 72,587 97.32 300',
                    '10Q 10QM Request Responder (2KB Persistent) 109,495 88.54 300 65,984 96.28 300',
                    '10Q 10QM Request Responder (20KB Persistent) 34,651 36.15 110 12,194 19.33 50',
                    '10Q 10QM Request Responder (200KB Persistent) 3,614 12.97 40 1,292 7.09 10',
                ]},
            "Table 3": {
                "title": 'TABLE 3 - PEAK RATES FOR 10QM PERSISTENT MESSAGING, M2002A VS M2001A', "page": 9,
                "groups": ['M2002A HA and DR', 'M2001A HA and DR'],
                "columns": ['Max Rate*', 'CPU%', 'Clients', 'Latency#'],
                "rows": [
                    '10Q 10QM Request Responder (256b Persistent) 112,849 93.77 400 0.7 68,027 96.41 300 1.2',
                    '10Q 10QM Request Responder (2KB Persistent) 95,900 91.45 400 0.8 59,100 94.65 300 1.4',
                    '10Q 10QM Request Responder (20KB Persistent) 34,399 61.46 400 1.0 11,787 33.39 60 1.9',
                    '10Q 10QM Request Responder (200KB Persistent) 3,794 33.13 90 3.0 1,232 17.15 80 4.2',
                ]},
            "Table 4": {
                "title": 'TABLE 4 - PEAK RATES FOR NON-PERSISTENT MESSAGING', "page": 12,
                "groups": ['M2002A', 'M2002B'],
                "columns": ['Max Rate*', 'CPU%', 'Clients'],
                "rows": [
                    '10Q Request Responder (256b Non-persistent) 310,134 95.46 200 104,003 99.98 100',
                    '10Q Request Responder (2KB Non-persistent) 277,463 96.56 200 95,616 99.97 100',
                    '10Q Request Responder (20KB Non-persistent) 179,556 97.66 200 60,565 99.9 80',
                    '10Q Request Responder (200KB Non-persistent) 22,299 75.56 80 10,258 96.59 30',
                ]},
            "Table 5": {
                "title": 'TABLE 5 – PEAK RATES FOR PERSISTENT MESSAGING', "page": 13,
                "groups": ['M2002A', 'M2002B'],
                "columns": ['Max Rate*', 'CPU%', 'Clients'],
                "rows": [
                    '10Q Request Responder (256b Persistent) 94,738 85.39 280 35,672 90.53 140',
                    '10Q Request Responder (2KB Persistent) 73,509 64.37 300 30,672 84.59 120',
                    '10Q Request Responder (20KB Persistent) 17,303 17.53 160 12,332 46.24 40',
                    '10Q Request Responder (200KB Persistent) 1,892 5.94 15 1,696 23.35 15',
                ]},
            "Table 6": {
                "title": 'TABLE 6 - PEAK RATES FOR 10QM NON-PERSISTENT MESSAGING', "page": 14,
                "groups": ['M2002A', 'M2002B'],
                "columns": ['Max Rate*', 'CPU%', 'Clients'],
                "rows": [
                    '10Q 10QM Request Responder (256b Non-persistent) 348,251 99.02 200 107,501 99.98 80',
                    '10Q 10QM Request Responder (2KB Non-persistent) 314,050 99.02 240 90,832 99.98 80',
                    '10Q 10QM Request Responder (20KB Non-persistent) 195,197 99.23 180 63,214 99.98 80',
                    '10Q 10QM Request Responder (200KB Non-persistent) 22,539 60.31 70 11,711 99.94 70',
                ]},
            "Table 7": {
                "title": 'TABLE 7- PEAK RATES FOR 10QM PERSISTENT MESSAGING', "page": 15,
                "groups": ['M2002A', 'M2002B'],
                "columns": ['Max Rate*', 'CPU%', 'Clients'],
                "rows": [
                    '10Q 10QM Request Responder (256b Persistent) 128,042 94.05 400 38,760 99.5 380',
                    '10Q 10QM Request Responder (2KB Persistent) 111,870 90.81 400 35,957 98.68 280',
                    '10Q 10QM Request Responder (20KB Persistent) 34,651 36.15 110 20,618 91.42 120',
                    '10Q 10QM Request Responder (200KB Persistent) 3,614 12.97 40 3,934 62.87 50',
                ]},
            "Table 8": {
                "title": 'TABLE 8 - PEAK RATES FOR PERSISTENT MESSAGING', "page": 18,
                "groups": ['M2002A HA', 'M2002A nonHA'],
                "columns": ['Max Rate*', 'CPU%', 'Clients', 'Latency#'],
                "rows": [
                    '10Q Request Responder (256b Persistent) 74,050 68.25 500 0.7 94,738 85.39 280 0.4',
                    '10Q Request Responder (2KB Persistent) 39,933 39.14 400 0.8 73,509 64.37 300 0.5',
                    '10Q Request Responder (20KB Persistent) 6,923 10.03 120 1.0 17,303 17.53 160 0.6',
                    '10Q Request Responder (200KB Persistent) 733 4.42 15 2.9 1,892 5.94 15 1.7',
                ]},
            "Table 9": {
                "title": 'TABLE 9 - PEAK RATES FOR 10QM PERSISTENT MESSAGING', "page": 19,
                "groups": ['M2002A HA', 'M2002A nonHA'],
                "columns": ['Max Rate*', 'CPU%', 'Clients', 'Latency#'],
                "rows": [
                    '10Q 10QM Request Responder (256b Persistent) 107,770 95.14 360 0.6 128,042 94.05 400 0.4',
                    '10Q 10QM Request Responder (2KB Persistent) 94,215 91.83 400 0.7 111,870 90.81 400 0.5',
                    '10Q 10QM Request Responder (20KB Persistent) 35,783 56.17 400 1.0 34,651 36.15 110 0.6',
                    '10Q 10QM Request Responder (200KB Persistent) 3,949 26.06 140 2.8 3,614 12.97 40 1.7',
                ]},
            "Table 10": {
                "title": 'TABLE 10 - PEAK RATES FOR 10QM PERSISTENT MESSAGING WITH 2MS SIMULATED LATENCY', "page": 21,
                "groups": ['M2002A HA'],
                "columns": ['Max Rate*', 'CPU%', 'Clients', 'Latency#', 'vs Direct'],
                "rows": [
                    '10Q 10QM Request Responder 2ms Latency (256b Persistent) 19,926 14.7 400 8.8 18.5%',
                    '10Q 10QM Request Responder 2ms Latency (2KB Persistent) 18,919 15.78 400 10.6 20.1%',
                    '10Q 10QM Request Responder 2ms Latency (20KB Persistent) 15,684 23.04 400 11.3 43.8%',
                    '10Q 10QM Request Responder 2ms Latency (200KB Persistent) 2,823 19.48 150 13.1 71.5%',
                ]},
            "Table 11": {
                "title": 'TABLE 11 - PEAK RATES FOR 10QM PERSISTENT MESSAGING WITH 1, 5 AND 10MS SIMULATED LATENCY', "page": 21,
                "groups": ['M2002A HA'],
                "columns": ['Max Rate*', 'CPU%', 'Clients', 'Latency#', 'vs Direct'],
                "rows": [
                    '10Q 10QM Request Responder 1ms Latency (256b Persistent) 36,760 27.68 400 4.7 34.1%',
                    '10Q 10QM Request Responder 1ms Latency (2KB Persistent) 34,945 29.63 400 5.7 37.1%',
                    '10Q 10QM Request Responder 1ms Latency (20KB Persistent) 22,602 34.91 400 6.2 63.2%',
                    '10Q 10QM Request Responder 1ms Latency (200KB Persistent) 3,499 25.78 150 8.0 88.6%',
                    '10Q 10QM Request Responder 5ms Latency (256b Persistent) 8,242 6.5 400 20.9 7.6%',
                    '10Q 10QM Request Responder 5ms Latency (2KB Persistent) 8,175 7.42 400 25.3 8.7%',
                    '10Q 10QM Request Responder 5ms Latency (20KB Persistent) 8,020 11.88 400 26.8 22.4%',
                    '10Q 10QM Request Responder 5ms Latency (200KB Persistent) 1,637 10.46 150 33.5 41.5%',
                    '10Q 10QM Request Responder 10ms Latency (256b Persistent) 4,240 3.82 400 41.2 3.9%',
                    '10Q 10QM Request Responder 10ms Latency (2KB Persistent) 4,257 3.95 400 49.9 4.5%',
                    '10Q 10QM Request Responder 10ms Latency (20KB Persistent) 4,548 7.35 400 52.6 12.7%',
                    '10Q 10QM Request Responder 10ms Latency (200KB Persistent) 858 6.07 150 66.4 21.7%',
                ]},
            "Table 12": {
                "title": 'TABLE 12 - PEAK RATES FOR PERSISTENT MESSAGING', "page": 24,
                "groups": ['M2002A DR', 'M2002A nonDR'],
                "columns": ['Max Rate*', 'CPU%', 'Clients', 'Latency#'],
                "rows": [
                    '10Q Request Responder (256b Persistent) 82,670 68.2 300 0.5 94,738 85.39 280 0.4',
                    '10Q Request Responder (2KB Persistent) 55,892 47.87 300 0.6 73,509 64.37 300 0.5',
                    '10Q Request Responder (20KB Persistent) 11,066 13.24 120 0.8 17,303 17.53 160 0.6',
                    '10Q Request Responder (200KB Persistent) 1,188 5.79 20 2.1 1,892 5.94 15 1.7',
                ]},
            "Table 13": {
                "title": 'TABLE 13 - PEAK RATES FOR 10QM PERSISTENT MESSAGING', "page": 25,
                "groups": ['M2002A DR', 'M2002A nonDR'],
                "columns": ['Max Rate*', 'CPU%', 'Clients', 'Latency#'],
                "rows": [
                    '10Q 10QM Request Responder (256b Persistent) 117,916 98.03 400 0.5 128,042 94.05 400 0.4',
                    '10Q 10QM Request Responder (2KB Persistent) 102,856 97.03 400 0.6 111,870 90.81 400 0.5',
                    '10Q 10QM Request Responder (20KB Persistent) 35,902 51.04 260 0.7 34,651 36.15 110 0.6',
                    '10Q 10QM Request Responder (200KB Persistent) 3,739 21.65 50 2.0 3,614 12.97 40 1.7',
                ]},
            "Table 14": {
                "title": 'TABLE 14 - PEAK RATES FOR 10QM PERSISTENT MESSAGING WITH 10, 20, 50 AND 100MS SIMULATED LATENCY', "page": 26,
                "groups": ['M2002A DR'],
                "columns": ['Max Rate*', 'CPU%', 'Clients', 'Latency#', 'vs Direct'],
                "rows": [
                    '10Q 10QM Request Responder 10ms Latency (256b Persistent) 116,094 97.88 400 0.5 98.5%',
                    '10Q 10QM Request Responder 10ms Latency (2KB Persistent) 102,625 95.92 400 0.6 99.8%',
                    '10Q 10QM Request Responder 10ms Latency (20KB Persistent) 33,997 44.88 280 0.7 94.7%',
                    '10Q 10QM Request Responder 10ms Latency (200KB Persistent) 3,182 15.69 50 2.1 85.1%',
                    '10Q 10QM Request Responder 20ms Latency (256b Persistent) 114,165 93.93 380 0.5 96.8%',
                    '10Q 10QM Request Responder 20ms Latency (2KB Persistent) 99,599 91.92 300 0.6 96.8%',
                    '10Q 10QM Request Responder 20ms Latency (20KB Persistent) 18,175 20.53 180 0.7 50.6%',
                    '10Q 10QM Request Responder 20ms Latency (200KB Persistent) 1,577 7.62 50 3.5 42.2%',
                    '10Q 10QM Request Responder 50ms Latency (256b Persistent) 100,326 77.65 400 0.5 85.1%',
                    '10Q 10QM Request Responder 50ms Latency (2KB Persistent) 59,833 46.2 260 0.6 58.2%',
                    '10Q 10QM Request Responder 50ms Latency (20KB Persistent) 8,160 9.88 220 1.4 22.7%',
                    '10Q 10QM Request Responder 50ms Latency (200KB Persistent) 757 3.8 40 7.8 20.3%',
                    '10Q 10QM Request Responder 100ms Latency (256b Persistent) 61,098 42.59 240 0.9 51.8%',
                    '10Q 10QM Request Responder 100ms Latency (2KB Persistent) 29,379 18.97 360 1.1 28.6%',
                    '10Q 10QM Request Responder 100ms Latency (20KB Persistent) 4,541 5.52 240 2.8 12.6%',
                    '10Q 10QM Request Responder 100ms Latency (200KB Persistent) 341 2.04 50 15.9 9.1%',
                ]},
            "Table 15": {
                "title": 'TABLE 15 - PEAK RATES FOR PERSISTENT MESSAGING, HA AND DR', "page": 27,
                "groups": ['M2002A HA and DR', 'M2002A nonHA'],
                "columns": ['Max Rate*', 'CPU%', 'Clients', 'Latency#'],
                "rows": [
                    '10Q Request Responder (256b Persistent) 70,528 65.33 500 0.7 94,738 85.39 280 0.4',
                    '10Q Request Responder (2KB Persistent) 37,805 37.68 400 0.8 73,509 64.37 300 0.5',
                    '10Q Request Responder (20KB Persistent) 6,475 10.74 140 1.1 17,303 17.53 160 0.6',
                    '10Q Request Responder (200KB Persistent) 684 5.28 15 3.0 1,892 5.94 15 1.7',
                ]},
            "Table 16": {
                "title": 'TABLE 16 - PEAK RATES FOR 10QM PERSISTENT MESSAGING, HA AND DR', "page": 27,
                "groups": ['M2002A HA and DR', 'M2002A nonHA'],
                "columns": ['Max Rate*', 'CPU%', 'Clients', 'Latency#'],
                "rows": [
                    '10Q 10QM Request Responder (256b Persistent) 112,849 93.77 400 0.7 128,042 94.05 400 0.4',
                    '10Q 10QM Request Responder (2KB Persistent) 95,900 91.45 400 0.8 111,870 90.81 400 0.5',
                    '10Q 10QM Request Responder (20KB Persistent) 34,399 61.46 400 1.0 34,651 36.15 110 0.6',
                    '10Q 10QM Request Responder (200KB Persistent) 3,794 33.13 90 3.0 3,614 12.97 40 1.7',
                ]},
            "Table 17": {
                "title": 'TABLE 17 - PEAK RATES FOR PERSISTENT MESSAGING', "page": 28,
                "groups": ['M2002A HA', 'M2002B HA'],
                "columns": ['Max Rate*', 'CPU%', 'Clients', 'Latency#'],
                "rows": [
                    '10Q Request Responder (256b Persistent) 74,050 68.25 500 0.7 27,813 79.67 100 0.7',
                    '10Q Request Responder (2KB Persistent) 39,933 39.14 400 0.8 20,735 57.95 50 0.8',
                    '10Q Request Responder (20KB Persistent) 6,923 10.03 120 1.0 5,810 30.75 120 1.0',
                    '10Q Request Responder (200KB Persistent) 733 4.42 15 2.9 699 16.67 15 3.0',
                ]},
            "Table 18": {
                "title": 'TABLE 18 - PEAK RATES FOR 10QM PERSISTENT MESSAGING', "page": 29,
                "groups": ['M2002A HA', 'M2002B HA'],
                "columns": ['Max Rate*', 'CPU%', 'Clients', 'Latency#'],
                "rows": [
                    '10Q 10QM Request Responder (256b Persistent) 107,770 95.14 360 0.6 34,678 99.1 400 0.6',
                    '10Q 10QM Request Responder (2KB Persistent) 94,215 91.83 400 0.7 29,985 98.33 400 0.8',
                    '10Q 10QM Request Responder (20KB Persistent) 35,783 56.17 400 1.0 16,133 93.75 400 1.0',
                    '10Q 10QM Request Responder (200KB Persistent) 3,949 26.06 140 2.8 3,094 87.9 130 3.0',
                ]},
            "Table 19": {
                "title": 'TABLE 19 - PEAK RATES FOR PERSISTENT MESSAGING', "page": 30,
                "groups": ['M2002A DR', 'M2002B DR'],
                "columns": ['Max Rate*', 'CPU%', 'Clients', 'Latency#'],
                "rows": [
                    '10Q Request Responder (256b Persistent) 82,670 68.2 300 0.5 32,939 87.25 160 0.5',
                    '10Q Request Responder (2KB Persistent) 55,892 47.87 300 0.6 25,829 70.86 120 0.6',
                    '10Q Request Responder (20KB Persistent) 11,066 13.24 120 0.8 8,756 41.63 120 0.7',
                    '10Q Request Responder (200KB Persistent) 1,188 5.79 20 2.1 1,130 22.82 15 2.0',
                ]},
            "Table 20": {
                "title": 'TABLE 20 - PEAK RATES FOR 10QM PERSISTENT MESSAGING', "page": 31,
                "groups": ['M2002A DR', 'M2002B DR'],
                "columns": ['Max Rate*', 'CPU%', 'Clients', 'Latency#'],
                "rows": [
                    '10Q 10QM Request Responder (256b Persistent) 117,916 98.03 400 0.5 40,176 99.83 400 0.5',
                    '10Q 10QM Request Responder (2KB Persistent) 102,856 97.03 400 0.6 35,162 99.76 400 0.6',
                    '10Q 10QM Request Responder (20KB Persistent) 35,902 51.04 260 0.7 18,383 98.57 300 0.7',
                    '10Q 10QM Request Responder (200KB Persistent) 3,739 21.65 50 2.0 3,172 85.52 50 1.9',
                ]},
            "Table 21": {
                "title": 'TABLE 21 - PEAK RATES FOR PERSISTENT MESSAGING', "page": 32,
                "groups": ['M2002A HA and DR', 'M2002B HA and DR'],
                "columns": ['Max Rate*', 'CPU%', 'Clients', 'Latency#'],
                "rows": [
                    '10Q Request Responder (256b Persistent) 70,528 65.33 500 0.7 25,988 75.34 150 0.7',
                    '10Q Request Responder (2KB Persistent) 37,805 37.68 400 0.8 18,416 63.49 400 0.8',
                    '10Q Request Responder (20KB Persistent) 6,475 10.74 140 1.1 4,799 29.81 140 1.2',
                    '10Q Request Responder (200KB Persistent) 684 5.28 15 3.0 562 17.92 15 3.4',
                ]},
            "Table 22": {
                "title": 'TABLE 22 - PEAK RATES FOR 10QM PERSISTENT MESSAGING', "page": 33,
                "groups": ['M2002A HA and DR', 'M2002B HA and DR'],
                "columns": ['Max Rate*', 'CPU%', 'Clients', 'Latency#'],
                "rows": [
                    '10Q 10QM Request Responder (256b Persistent) 112,849 93.77 400 0.7 32,730 99.13 400 0.7',
                    '10Q 10QM Request Responder (2KB Persistent) 95,900 91.45 400 0.8 28,405 98.43 380 0.8',
                    '10Q 10QM Request Responder (20KB Persistent) 34,399 61.46 400 1.0 13,148 93.64 380 1.1',
                    '10Q 10QM Request Responder (200KB Persistent) 3,794 33.13 90 3.0 2,201 87.76 100 3.4',
                ]},
        },
    },
}
